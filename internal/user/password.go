package user

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"

	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
)

// MaxPasswordBytes is the longest password accepted, in bytes of UTF-8:
// bcrypt reads no further, so two passwords differing only after it would
// be the same password. Longer ones are refused, never truncated.
const MaxPasswordBytes = 72

// errPasswordTooLong is the Invalid fault of a password over
// MaxPasswordBytes.
func errPasswordTooLong(field string) error {
	return fault.New(fault.Invalid,
		"%s is longer than %d bytes: passwords are at most %d bytes of UTF-8 (bcrypt's limit; a character outside ASCII takes 2 to 4 bytes)",
		field, MaxPasswordBytes, MaxPasswordBytes)
}

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
	if len(password) > MaxPasswordBytes {
		return errPasswordTooLong("the password")
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

// hashPassword returns the bcrypt hash of password, which must be at most
// MaxPasswordBytes long (bcrypt refuses longer ones).
func hashPassword(password string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	if err != nil {
		return "", err
	}
	return string(h), nil
}

// matches reports whether password is the one hash was made from. A
// password over MaxPasswordBytes never matches: bcrypt would compare only
// its first MaxPasswordBytes bytes.
func matches(hash, password string) bool {
	return hash != "" && len(password) <= MaxPasswordBytes &&
		bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) == nil
}
