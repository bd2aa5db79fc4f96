package user

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"

	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
)

// MaxPasswordLength is the longest password accepted (bcrypt uses at most
// 72 bytes; the contract allows 80 characters, so longer ones are refused
// rather than silently truncated by a hash that ignores the rest).
const MaxPasswordLength = 80

// maxPasswordBytes is bcrypt's input limit.
const maxPasswordBytes = 72

// PasswordHistory is how many recent passwords (the current one included)
// a new password must differ from.
const PasswordHistory = 3

// CheckPolicy reports whether password satisfies the policy and minimum
// length of s; a violation is a fault of kind Invalid naming the rule.
func CheckPolicy(s Settings, password string) error {
	n := utf8.RuneCountInString(password)
	minLen := max(s.PasswordMinLength, 1)
	if n < minLen {
		return fault.New(fault.Invalid, "the password must be at least %d characters long (password.length)", minLen)
	}
	if n > MaxPasswordLength {
		return fault.New(fault.Invalid, "the password must be at most %d characters long", MaxPasswordLength)
	}
	if len(password) > maxPasswordBytes {
		return fault.New(fault.Invalid, "the password must be at most %d bytes long in UTF-8", maxPasswordBytes)
	}
	var upper, lower, digit, special bool
	for _, r := range password {
		switch {
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsLower(r):
			lower = true
		case unicode.IsDigit(r):
			digit = true
		case !unicode.IsLetter(r):
			special = true
		}
	}
	mixed := upper && lower
	switch s.PasswordPolicy {
	case configmgr.PolicyMixedCase:
		if !mixed {
			return fault.New(fault.Invalid, "the password must contain upper and lower case letters (password.policy %q)", s.PasswordPolicy)
		}
	case configmgr.PolicyMixedCaseNumeric:
		if !mixed || !digit {
			return fault.New(fault.Invalid, "the password must contain upper and lower case letters and a digit (password.policy %q)", s.PasswordPolicy)
		}
	case configmgr.PolicyMixedCaseNumericSpecial:
		if !mixed || !digit || !special {
			return fault.New(fault.Invalid, "the password must contain upper and lower case letters, a digit and a special character (password.policy %q)", s.PasswordPolicy)
		}
	}
	return nil
}

// hashPassword returns the bcrypt hash of password.
func hashPassword(password string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	if err != nil {
		return "", err
	}
	return string(h), nil
}

// matches reports whether password is the one hash was made from.
func matches(hash, password string) bool {
	return hash != "" && bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) == nil
}
