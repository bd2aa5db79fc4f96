package configmgr

import "testing"

func TestWatchFollowsTheItem(t *testing.T) {
	f := newTestFixture(t)
	w, err := f.m.Watch(t.Context(), testCategory, "label")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	before := w.Value()
	if _, err := f.m.SetValue(t.Context(), testCategory, "label", "edge"); err != nil {
		t.Fatal(err)
	}
	if got := w.Value(); got != "edge" {
		t.Errorf("Value after a change = %q (was %q), want edge", got, before)
	}
	if _, err := f.m.Watch(t.Context(), "no-such-category", "label"); err == nil {
		t.Error("Watch of an unknown category = nil error")
	}
}
