package db_test

import (
	"encoding/json"
	"reflect"
	"testing"
)

// jsonEqual reports whether two JSON documents are equal as values (key
// order and whitespace ignored: PostgreSQL's jsonb normalises both).
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("invalid JSON %q: %v", a, err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("invalid JSON %q: %v", b, err)
	}
	return reflect.DeepEqual(va, vb)
}
