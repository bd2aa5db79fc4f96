package system

import "testing"

func TestControlKeepsTheFirstRequest(t *testing.T) {
	c := NewControl()
	if got := c.Requested(); got != 0 {
		t.Fatalf("Requested before any request = %v", got)
	}
	select {
	case a := <-c.Done():
		t.Fatalf("Done delivered %v before any request", a)
	default:
	}
	if !c.Request(Restart) {
		t.Fatal("the first request was refused")
	}
	if c.Request(Shutdown) {
		t.Error("a second request was accepted")
	}
	if got := c.Requested(); got != Restart {
		t.Errorf("Requested = %v, want restart", got)
	}
	select {
	case a := <-c.Done():
		if a != Restart {
			t.Errorf("Done delivered %v, want restart", a)
		}
	default:
		t.Fatal("Done delivered nothing after a request")
	}
	if Shutdown.String() != "shutdown" || Restart.String() != "restart" || Action(0).String() != "none" {
		t.Error("Action names are wrong")
	}
}
