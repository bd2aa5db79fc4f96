package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/edged/edged/internal/backoff"
	"github.com/edged/edged/internal/clock"
)

// Delivery plugin names.
const (
	DeliveryWebhook  = "webhook"
	DeliveryMQTT     = "mqtt"
	DeliveryEmail    = "email"
	DeliveryAsset    = "asset"
	DeliverySetpoint = "setpoint"
)

func init() {
	registerDelivery(DeliveryWebhook, "POSTs the notification as a JSON document to a URL",
		map[string]Item{
			"url":     {Description: "The http:// or https:// URL", Type: typeString, DisplayName: "URL", Order: "1", Mandatory: "true"},
			"headers": {Description: `Extra request headers, a JSON object of name to value (e.g. {"Authorization": "Bearer …"})`, Type: typeJSON, Default: "{}", DisplayName: "Headers", Order: "2"},
			"timeout": {Description: "Seconds one attempt may take", Type: typeInteger, Default: "10", DisplayName: "Timeout (s)", Order: "3", Minimum: "1", Maximum: "300"},
			"retries": {Description: "Attempts after a failed one (a network error, a timeout, status 408, 429 or 5xx)", Type: typeInteger, Default: "3", DisplayName: "Retries", Order: "4", Minimum: "0", Maximum: "20"},
			"backoff": {Description: "Milliseconds before the first retry, doubled before each next one (at most 30 s)", Type: typeInteger, Default: "1000", DisplayName: "Backoff (ms)", Order: "5", Minimum: "1", Maximum: "60000"},
		}, newWebhook)
	registerDelivery(DeliveryAsset, "Writes the notification as a reading of an asset into the gateway's buffer",
		map[string]Item{
			"asset": {Description: "The asset of the reading", Type: typeString, DisplayName: "Asset", Order: "1", Mandatory: "true"},
		}, newAssetDelivery)
	registerDelivery(DeliverySetpoint, "Makes a control write on a south service or an asset's service when the notification triggers (and clears)",
		map[string]Item{
			"destination": {Description: "What name names", Type: typeEnum, Options: []string{"service", "asset"}, Default: "service", DisplayName: "Destination", Order: "1"},
			"name":        {Description: "The service or asset", Type: typeString, DisplayName: "Name", Order: "2", Mandatory: "true"},
			"values":      {Description: `The values written when triggered, a JSON object (e.g. {"valve": "closed"})`, Type: typeJSON, DisplayName: "Values", Order: "3", Mandatory: "true"},
			"clearValues": {Description: "The values written when a toggled notification clears, a JSON object; empty: nothing is written", Type: typeJSON, DisplayName: "Clear values", Order: "4"},
		}, newSetpoint)
}

// webhook POSTs events as JSON.
type webhook struct {
	url     string
	headers map[string]string
	timeout time.Duration
	retries int
	backoff backoff.Policy
	client  *http.Client
	clock   clock.Clock
}

func newWebhook(c config, d deps) (delivery, error) {
	u, err := url.Parse(c["url"])
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("item %q = %q is not an http or https URL", "url", c["url"])
	}
	w := &webhook{url: c["url"], timeout: c.seconds("timeout"), retries: int(c.int("retries")), client: d.http, clock: d.clock,
		backoff: backoff.Policy{Initial: time.Duration(c.int("backoff")) * time.Millisecond, Max: 30 * time.Second}}
	if err := json.Unmarshal([]byte(c["headers"]), &w.headers); err != nil {
		return nil, fmt.Errorf("item %q is not a JSON object of strings", "headers")
	}
	return w, nil
}

// errPermanent marks a failure a retry would not mend.
var errPermanent = errors.New("permanent")

func (w *webhook) Deliver(ctx context.Context, ev Event) error {
	body, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		err = w.post(ctx, body)
		if err == nil || errors.Is(err, errPermanent) || attempt >= w.retries || ctx.Err() != nil {
			if err != nil && attempt > 0 {
				err = fmt.Errorf("after %d attempts: %w", attempt+1, err)
			}
			return err
		}
		t := w.clock.NewTimer(w.backoff.Delay(attempt))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C():
		}
	}
}

func (w *webhook) post(ctx context.Context, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, w.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%w: %w", errPermanent, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "edged-notification")
	for k, v := range w.headers {
		req.Header.Set(k, v)
	}
	resp, err := w.client.Do(req)
	if err != nil {
		return fmt.Errorf("POST %s: %w", w.url, err)
	}
	defer func() { _ = resp.Body.Close() }()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // lets the connection be reused
	switch s := resp.StatusCode; {
	case s >= 200 && s < 300:
		return nil
	case s == http.StatusRequestTimeout || s == http.StatusTooManyRequests || s >= 500:
		return fmt.Errorf("POST %s: %s", w.url, resp.Status)
	default:
		return fmt.Errorf("%w: POST %s: %s", errPermanent, w.url, resp.Status)
	}
}

func (w *webhook) Close() {}

// assetDelivery writes events as readings.
type assetDelivery struct {
	asset string
	host  Host
}

func newAssetDelivery(c config, d deps) (delivery, error) {
	return &assetDelivery{asset: c["asset"], host: d.host}, nil
}

func (a *assetDelivery) Deliver(ctx context.Context, ev Event) error {
	values := map[string]any{"notification": ev.Notification, "rule": ev.Rule, "state": ev.State,
		"reason": ev.Reason, "message": ev.Message}
	if ev.Asset != "" {
		values["asset"] = ev.Asset
	}
	return a.host.Ingest(ctx, []Reading{{Asset: a.asset, Timestamp: ev.Time, Values: values}})
}

func (a *assetDelivery) Close() {}

// setpoint makes control writes.
type setpoint struct {
	dest, name    string
	values, clear map[string]any
	host          Host
}

func newSetpoint(c config, d deps) (delivery, error) {
	s := &setpoint{dest: c["destination"], name: c["name"], host: d.host}
	var err error
	if s.values, err = c.object("values"); err != nil {
		return nil, err
	}
	if len(s.values) == 0 {
		return nil, fmt.Errorf("item %q holds no value to write", "values")
	}
	if s.clear, err = c.object("clearValues"); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *setpoint) Deliver(ctx context.Context, ev Event) error {
	values := s.values
	if ev.State == StateCleared {
		if len(s.clear) == 0 {
			return errSkip
		}
		values = s.clear
	}
	return s.host.Dispatch(ctx, Write{Destination: s.dest, Name: s.name, Values: values})
}

func (s *setpoint) Close() {}
