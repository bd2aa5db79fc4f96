package user

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

type fakeStore struct {
	users int
	hash  string
}

func (f *fakeStore) CountUsers(context.Context) (int, error) { return f.users, nil }

func (f *fakeStore) InsertFirstAdmin(_ context.Context, hash string) (bool, int64, error) {
	if f.users > 0 {
		return false, 0, nil
	}
	f.users, f.hash = 1, hash
	return true, 1, nil
}

type fakeAudit struct{ sources []string }

func (a *fakeAudit) Record(_ context.Context, source, _ string, _ any) error {
	a.sources = append(a.sources, source)
	return nil
}

func TestEnsureAdmin(t *testing.T) {
	tests := []struct {
		name         string
		existing     int
		password     string
		wantErr      bool
		wantCreated  bool
		wantFile     bool
		wantPassword string // checked against the stored hash when set
	}{
		{name: "password from environment", password: "Secret-Pass-1", wantCreated: true, wantPassword: "Secret-Pass-1"},
		{name: "generated password written to file", wantCreated: true, wantFile: true},
		{name: "too short a password", password: "short", wantErr: true},
		{name: "longer than bcrypt reads", password: strings.Repeat("Long-Pass-", 7) + "123", wantErr: true},
		{name: "exactly 72 bytes", password: strings.Repeat("Long-Pass-", 7) + "12", wantCreated: true,
			wantPassword: strings.Repeat("Long-Pass-", 7) + "12"},
		{name: "users exist already", existing: 3, password: "Secret-Pass-1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			store := &fakeStore{users: tc.existing}
			audit := &fakeAudit{}
			var logged strings.Builder
			log := slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))
			err := EnsureAdmin(t.Context(), store, audit, log, dir, tc.password)
			if tc.wantErr != (err != nil) {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if created := store.hash != ""; created != tc.wantCreated {
				t.Fatalf("created = %v, want %v", created, tc.wantCreated)
			}
			if tc.wantCreated && (len(audit.sources) != 1 || audit.sources[0] != "USRAD") {
				t.Errorf("audit = %v, want [USRAD]", audit.sources)
			}
			path := filepath.Join(dir, InitialPasswordFile)
			b, ferr := os.ReadFile(path)
			if tc.wantFile != (ferr == nil) {
				t.Fatalf("password file present = %v, want %v", ferr == nil, tc.wantFile)
			}
			want := tc.wantPassword
			if tc.wantFile {
				st, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if st.Mode().Perm() != 0o600 {
					t.Errorf("file mode = %v, want 0600", st.Mode().Perm())
				}
				if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o700 {
					t.Errorf("data directory: %v, mode %v; want 0700", err, st.Mode().Perm())
				}
				want = strings.TrimSpace(string(b))
				// The password goes to its file only; the log says
				// where the file is.
				if strings.Contains(logged.String(), want) {
					t.Errorf("the generated password is in the log: %s", logged.String())
				}
				if !strings.Contains(logged.String(), path) {
					t.Errorf("the log does not name the password file %s: %s", path, logged.String())
				}
			}
			if tc.password != "" && strings.Contains(logged.String(), tc.password) {
				t.Errorf("the given password is in the log: %s", logged.String())
			}
			if want != "" {
				if err := bcrypt.CompareHashAndPassword([]byte(store.hash), []byte(want)); err != nil {
					t.Errorf("stored hash does not match the password: %v", err)
				}
			}
		})
	}
}
