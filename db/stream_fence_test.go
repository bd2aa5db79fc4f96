package db

import (
	"testing"
	"time"
)

func TestStreamFence(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	var f streamFence

	if got := f.bound(at(10)); !got.Equal(at(10)) {
		t.Fatalf("bound with nothing in flight = %v, want now", got)
	}
	// A batch stamped before the bound handed out is raised to it.
	rows := []Reading{{TS: at(5)}, {TS: at(12)}}
	doneA := f.enter(rows)
	if !rows[0].TS.Equal(at(10)) || !rows[1].TS.Equal(at(12)) {
		t.Fatalf("entered rows = %v, %v; want the early one raised to the bound", rows[0].TS, rows[1].TS)
	}
	// In flight, it holds the bound at its smallest ts, whatever the time.
	if got := f.bound(at(20)); !got.Equal(at(10)) {
		t.Fatalf("bound with a batch in flight = %v, want its smallest ts", got)
	}
	doneB := f.enter([]Reading{{TS: at(30)}})
	doneA(true)
	if got := f.bound(at(40)); !got.Equal(at(30)) {
		t.Fatalf("bound with the later batch in flight = %v", got)
	}
	committed := f.wait()
	doneB(false) // a failed batch wakes nobody
	select {
	case <-committed:
		t.Fatal("a rolled-back batch closed the commit channel")
	default:
	}
	// The clock stepped back: the bound never goes back, and a commit
	// stamped in the future moves it past that commit.
	if got := f.bound(at(1)); !got.Equal(at(30)) {
		t.Fatalf("bound after the clock stepped back = %v, want it kept at %v", got, at(30))
	}
	done := f.enter([]Reading{{TS: at(100)}})
	done(true)
	select {
	case <-committed:
	default:
		t.Fatal("a commit did not close the commit channel")
	}
	if got := f.bound(at(50)); !got.Equal(at(100).Add(time.Microsecond)) {
		t.Fatalf("bound after a commit stamped ahead of the clock = %v", got)
	}
}
