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

func TestFollowParsesEveryChange(t *testing.T) {
	f := newTestFixture(t)
	label := func(c Category) string { return "label=" + c.Items["label"].Value }
	followed, err := Follow(t.Context(), f.m, testCategory, label)
	if err != nil {
		t.Fatal(err)
	}
	defer followed.Close()
	if _, err := f.m.SetValue(t.Context(), testCategory, "label", "edge"); err != nil {
		t.Fatal(err)
	}
	if got := followed.Load(); got != "label=edge" {
		t.Errorf("Load after a change = %q, want label=edge", got)
	}
	followed.Close()
	if _, err := f.m.SetValue(t.Context(), testCategory, "label", "gone"); err != nil {
		t.Fatal(err)
	}
	if got := followed.Load(); got != "label=edge" {
		t.Errorf("Load after Close and a change = %q, want the value before Close", got)
	}
	if _, err := Follow(t.Context(), f.m, "no-such-category", label); err == nil {
		t.Error("Follow of an unknown category = nil error")
	}
}
