package supervisor

import (
	"context"
	"errors"
	"fmt"
)

// errCheckTimeout is a health check that did not answer within ping_timeout.
var errCheckTimeout = errors.New("the health check did not answer within ping_timeout")

// checks runs the unit's health check every sleep_interval while an
// attempt is up, until ctx ends. A check still running when the next is
// due is not started twice.
func (s *Supervisor) checks(ctx context.Context) {
	for {
		if !s.wait(ctx, s.o.Settings.Settings().Interval) {
			return
		}
		s.mu.Lock()
		up := s.up
		s.mu.Unlock()
		if !up {
			continue
		}
		err := s.check(ctx)
		if ctx.Err() != nil {
			return
		}
		s.mu.Lock()
		if !s.up { // the attempt ended meanwhile: its check says nothing
			s.mu.Unlock()
			continue
		}
		was := s.checkErr
		s.checkErr = err
		s.mu.Unlock()
		if s.o.checked != nil {
			s.o.checked(err)
		}
		switch {
		case err != nil && was == nil:
			s.log.Warn(s.u.Kind+" is unresponsive: its health check failed", "service", s.u.Name, "error", err)
		case err == nil && was != nil:
			s.log.Info(s.u.Kind+" answers its health check again", "service", s.u.Name)
		}
	}
}

// check runs one health check, bounded by ping_timeout on the clock.
func (s *Supervisor) check(ctx context.Context) error {
	checkCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	result := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				result <- fmt.Errorf("the health check panicked: %v", p)
			}
		}()
		result <- s.u.Check(checkCtx)
	}()
	if !s.waitFor(ctx, s.o.Settings.Settings().Timeout, result) {
		return errCheckTimeout
	}
	return <-result
}
