package clock

import (
	"testing"
	"time"
)

func TestFakeTimers(t *testing.T) {
	start := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	f := NewFake(start)
	a := f.NewTimer(2 * time.Second)
	b := f.NewTimer(time.Second)
	c := f.NewTimer(3 * time.Second)
	if got := f.Pending(); got != 3 {
		t.Fatalf("Pending = %d, want 3", got)
	}
	if !c.Stop() {
		t.Fatal("Stop of a pending timer = false")
	}
	if c.Stop() {
		t.Fatal("second Stop = true")
	}

	f.Advance(time.Second)
	select {
	case got := <-b.C():
		if want := start.Add(time.Second); !got.Equal(want) {
			t.Errorf("b fired at %v, want %v", got, want)
		}
	default:
		t.Fatal("b did not fire after 1s")
	}
	select {
	case <-a.C():
		t.Fatal("a fired before its deadline")
	default:
	}
	f.Advance(time.Second)
	select {
	case <-a.C():
	default:
		t.Fatal("a did not fire after 2s")
	}
	if got := f.Pending(); got != 0 {
		t.Errorf("Pending = %d, want 0", got)
	}
	if got := f.Now(); !got.Equal(start.Add(2 * time.Second)) {
		t.Errorf("Now = %v", got)
	}
}

func TestFakeZeroTimerFiresAtOnce(t *testing.T) {
	f := NewFake(time.Unix(0, 0))
	select {
	case <-f.NewTimer(0).C():
	default:
		t.Fatal("a zero timer did not fire")
	}
}

func TestFakeBlockUntil(t *testing.T) {
	f := NewFake(time.Unix(0, 0))
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-f.NewTimer(time.Minute).C()
	}()
	f.BlockUntil(1)
	f.Advance(time.Minute)
	<-done
}
