package notify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/mail"
	"net/smtp"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/edged/edged/internal/tlsclient"
)

// STARTTLS policies of the email delivery.
const (
	startTLSRequired      = "required"
	startTLSOpportunistic = "opportunistic"
	startTLSNone          = "none"
)

func init() {
	registerDelivery(DeliveryEmail, "Sends the notification by email through an SMTP server",
		map[string]Item{
			"host":     {Description: "The SMTP server", Type: typeString, DisplayName: "SMTP host", Order: "1", Mandatory: "true"},
			"port":     {Description: "Its port (587: submission with STARTTLS, 25: relay)", Type: typeInteger, Default: "587", DisplayName: "Port", Order: "2", Minimum: "1", Maximum: "65535"},
			"from":     {Description: "The sender's address", Type: typeString, DisplayName: "From", Order: "3", Mandatory: "true"},
			"to":       {Description: "The recipients' addresses, separated by commas", Type: typeString, DisplayName: "To", Order: "4", Mandatory: "true"},
			"subject":  {Description: "The subject, a Go template over the notification ({{.Notification}}, {{.State}}, {{.Reason}}, {{.Asset}}, {{.Rule}})", Type: typeString, Default: "[edged] {{.Notification}} {{.State}}", DisplayName: "Subject", Order: "5"},
			"username": {Description: "User name for SMTP AUTH (PLAIN); empty: no authentication", Type: typeString, DisplayName: "User name", Order: "6"},
			"password": {Description: "Password for SMTP AUTH", Type: typePassword, DisplayName: "Password", Order: "7"},
			"starttls": {Description: "required: fail unless the server offers STARTTLS; opportunistic: use it when offered; none: never (then AUTH only to a server on loopback)",
				Type: typeEnum, Options: []string{startTLSRequired, startTLSOpportunistic, startTLSNone}, Default: startTLSRequired, DisplayName: "STARTTLS", Order: "8"},
			"caFile":  {Description: "File of the PEM certificate(s) of the authority the server's certificate must chain to; empty: the system's", Type: typeString, DisplayName: "CA file", Order: "9"},
			"timeout": {Description: "Seconds the whole exchange with the server may take", Type: typeInteger, Default: "30", DisplayName: "Timeout (s)", Order: "10", Minimum: "1", Maximum: "600"},
		}, newEmail)
}

// email sends events through SMTP, one connection per event: notifications
// are rare, and a long-lived SMTP session would be closed by the server.
type email struct {
	host     string
	port     string
	from     string
	to       []string
	subject  *template.Template
	username string
	password string
	starttls string
	caFile   string
	timeout  time.Duration
}

func newEmail(c config, _ deps) (delivery, error) {
	e := &email{host: c["host"], port: strconv.FormatInt(c.int("port"), 10), username: c["username"], password: c["password"],
		starttls: c["starttls"], caFile: c["caFile"], timeout: c.seconds("timeout")}
	from, err := mail.ParseAddress(c["from"])
	if err != nil {
		return nil, fmt.Errorf("item %q = %q: %w", "from", c["from"], err)
	}
	e.from = from.Address
	to, err := mail.ParseAddressList(c["to"])
	if err != nil {
		return nil, fmt.Errorf("item %q = %q: %w", "to", c["to"], err)
	}
	for _, a := range to {
		e.to = append(e.to, a.Address)
	}
	if e.subject, err = template.New("subject").Option("missingkey=error").Parse(c["subject"]); err != nil {
		return nil, fmt.Errorf("item %q: %w", "subject", err)
	}
	if err := e.subject.Execute(&bytes.Buffer{}, Event{}); err != nil {
		return nil, fmt.Errorf("item %q: %w", "subject", err)
	}
	if e.username != "" && e.starttls == startTLSNone && !loopback(e.host) {
		return nil, fmt.Errorf("item %q is %q: the password would cross the network in clear", "starttls", startTLSNone)
	}
	return e, nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (e *email) Deliver(ctx context.Context, ev Event) error {
	var subj bytes.Buffer
	if err := e.subject.Execute(&subj, ev); err != nil {
		return fmt.Errorf("subject: %w", err)
	}
	msg := e.message(strings.TrimSpace(subj.String()), ev)
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	d := net.Dialer{}
	conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort(e.host, e.port))
	if err != nil {
		return fmt.Errorf("SMTP: %w", err)
	}
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() }) // a cancelled send ends at once
	defer stop()
	c, err := smtp.NewClient(conn, e.host)
	if err != nil {
		_ = conn.Close()
		return fmt.Errorf("SMTP greeting: %w", err)
	}
	defer func() { _ = c.Close() }()
	if err := e.send(c, msg); err != nil {
		return fmt.Errorf("SMTP: %w", err)
	}
	return nil
}

func (e *email) send(c *smtp.Client, msg []byte) error {
	if err := c.Hello("edged"); err != nil {
		return err
	}
	if e.starttls != startTLSNone {
		if ok, _ := c.Extension("STARTTLS"); ok {
			cfg, err := tlsclient.ConfigFile(e.host, e.caFile)
			if err != nil {
				return err
			}
			if err := c.StartTLS(cfg); err != nil {
				return fmt.Errorf("STARTTLS: %w", err)
			}
		} else if e.starttls == startTLSRequired {
			return errors.New("the server does not offer STARTTLS, which is required")
		}
	}
	if e.username != "" {
		// PlainAuth itself refuses to send the password unencrypted to
		// anything but loopback.
		if err := c.Auth(smtp.PlainAuth("", e.username, e.password, e.host)); err != nil {
			return fmt.Errorf("AUTH: %w", err)
		}
	}
	if err := c.Mail(e.from); err != nil {
		return err
	}
	for _, to := range e.to {
		if err := c.Rcpt(to); err != nil {
			return err
		}
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(msg); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

// message is the RFC 5322 message of ev.
func (e *email) message(subject string, ev Event) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: %s\r\n", e.from)
	fmt.Fprintf(&b, "To: %s\r\n", strings.Join(e.to, ", "))
	fmt.Fprintf(&b, "Subject: %s\r\n", mime.QEncoding.Encode("utf-8", subject))
	fmt.Fprintf(&b, "Date: %s\r\n", ev.Time.Format(time.RFC1123Z))
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n")
	lines := []string{ev.Message, "", "Notification: " + ev.Notification, "Rule: " + ev.Rule, "State: " + ev.State,
		"Reason: " + ev.Reason, "Time: " + ev.Time.UTC().Format(time.RFC3339Nano)}
	if ev.Description != "" {
		lines = append(lines, "Description: "+ev.Description)
	}
	if ev.Asset != "" {
		lines = append(lines, "Asset: "+ev.Asset)
	}
	for _, l := range lines {
		// A line of a lone dot would end the DATA early; the writer
		// dot-stuffs, but keep lines free of bare CR/LF from values.
		b.WriteString(strings.NewReplacer("\r", " ", "\n", " ").Replace(l))
		b.WriteString("\r\n")
	}
	return b.Bytes()
}

func (e *email) Close() {}
