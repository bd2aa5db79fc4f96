package dispatch

import (
	"fmt"
	"strconv"
	"time"
)

// Configuration items of the dispatcher service.
const (
	ItemTimeout     = "requestTimeout"
	ItemQueueLength = "queueLength"
)

// Limits reads the dispatcher's items from cfg (item name to value; a
// missing item takes its default) and returns the timeout and queue
// length, or an error naming a bad item.
func Limits(cfg map[string]string) (time.Duration, int, error) {
	timeout, queue := DefaultTimeout, DefaultQueueLength
	if v, ok := cfg[ItemTimeout]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 3600 {
			return 0, 0, fmt.Errorf("item %q = %q is not a number of seconds from 1 to 3600", ItemTimeout, v)
		}
		timeout = time.Duration(n) * time.Second
	}
	if v, ok := cfg[ItemQueueLength]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10000 {
			return 0, 0, fmt.Errorf("item %q = %q is not an integer from 1 to 10000", ItemQueueLength, v)
		}
		queue = n
	}
	return timeout, queue, nil
}
