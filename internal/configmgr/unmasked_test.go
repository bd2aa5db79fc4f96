package configmgr

import (
	"errors"
	"testing"
)

func TestUnmasked(t *testing.T) {
	f := newTestFixture(t)
	masked, err := f.m.Category(t.Context(), testCategory)
	if err != nil {
		t.Fatal(err)
	}
	if got := masked.Items["secret"].Value; got == "s3cret" {
		t.Fatalf("Category returned the password in clear: the test proves nothing")
	}
	clear, err := Unmasked(t.Context(), f.m, masked)
	if err != nil {
		t.Fatal(err)
	}
	values := clear.Values()
	if values["secret"] != "s3cret" {
		t.Errorf("password = %q, want it in clear", values["secret"])
	}
	if values["port"] != "8081" || values["label"] != "abc" {
		t.Errorf("other items changed: %v", values)
	}
	if masked.Items["secret"].Value == "s3cret" {
		t.Errorf("Unmasked changed the category it was given")
	}

	f.store.fail = errors.New("disk gone")
	if _, err := Unmasked(t.Context(), f.m, masked); err == nil {
		t.Errorf("Unmasked over a failing store: no error")
	}
}
