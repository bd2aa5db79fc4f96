package simtest

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-ldap/ldap/v3"
)

// Directory is a running OpenLDAP server (Debian's slapd) with an empty
// tree under Base, serving plain LDAP on URL and LDAP over TLS on TLSURL
// with a certificate signed by a fresh authority, CA.
type Directory struct {
	*Process
	// URL is ldap://127.0.0.1:PORT; StartTLS works on it.
	URL string
	// TLSURL is ldaps://127.0.0.1:PORT.
	TLSURL string
	// CA is the authority that signed the server's certificate.
	CA ServerTLS
	// Base is the suffix of the tree; People and Groups are the
	// organisational units under it that AddUser and AddGroup fill.
	Base, People, Groups string
	// AdminDN and AdminPassword are the root DN and its password.
	AdminDN, AdminPassword string

	t    testing.TB
	bin  string
	conf string
	urls string
}

// Slapd starts Debian's slapd on two free loopback ports with a generated
// configuration (mdb backend in the test's temporary directory) and the
// organisational units ou=people and ou=groups, and stops it when the test
// ends. A missing slapd skips or fails t (see the package doc).
func Slapd(t testing.TB) *Directory {
	t.Helper()
	bin := Program(t, "slapd", "install Debian's slapd package (apt-get install slapd)", "/usr/sbin")
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o700); err != nil {
		t.Fatal(err)
	}
	d := &Directory{
		URL: fmt.Sprintf("ldap://127.0.0.1:%d", FreePort(t)), TLSURL: fmt.Sprintf("ldaps://127.0.0.1:%d", FreePort(t)),
		CA:   NewServerTLS(t),
		Base: "dc=example,dc=org", People: "ou=people,dc=example,dc=org", Groups: "ou=groups,dc=example,dc=org",
		AdminDN: "cn=admin,dc=example,dc=org", AdminPassword: "directory-admin-secret",
		t: t, bin: bin, conf: filepath.Join(dir, "slapd.conf"),
	}
	d.urls = d.URL + "/ " + d.TLSURL + "/"
	conf := strings.Join([]string{
		"include /etc/ldap/schema/core.schema",
		"include /etc/ldap/schema/cosine.schema",
		"include /etc/ldap/schema/inetorgperson.schema",
		"include /etc/ldap/schema/nis.schema",
		"pidfile " + filepath.Join(dir, "slapd.pid"),
		"argsfile " + filepath.Join(dir, "slapd.args"),
		"modulepath /usr/lib/ldap",
		"moduleload back_mdb",
		"TLSCertificateFile " + d.CA.CertFile,
		"TLSCertificateKeyFile " + d.CA.KeyFile,
		"database mdb",
		"maxsize 10485760",
		`suffix "` + d.Base + `"`,
		`rootdn "` + d.AdminDN + `"`,
		"rootpw " + d.AdminPassword,
		"directory " + data,
		// Users may read the tree once bound, as the gateway does to
		// find their groups; passwords only by the server, for binds.
		"access to attrs=userPassword by anonymous auth by * none",
		"access to * by users read by * none",
	}, "\n") + "\n"
	if err := os.WriteFile(d.conf, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	d.Start()
	d.add(d.Base, map[string][]string{"objectClass": {"dcObject", "organization"}, "dc": {"example"}, "o": {"Example"}})
	d.add(d.People, map[string][]string{"objectClass": {"organizationalUnit"}, "ou": {"people"}})
	d.add(d.Groups, map[string][]string{"objectClass": {"organizationalUnit"}, "ou": {"groups"}})
	return d
}

// Start starts the server (again, after Stop, on the same ports and data).
func (d *Directory) Start() {
	d.t.Helper()
	d.Process = Start(d.t, "slapd starting", d.bin, "-f", d.conf, "-h", d.urls, "-d", "256")
	// slapd says it is starting before its listener thread listens.
	for _, u := range []string{d.URL, d.TLSURL} {
		addr := strings.TrimPrefix(strings.TrimPrefix(u, "ldap://"), "ldaps://")
		deadline := time.Now().Add(30 * time.Second)
		for {
			dialer := net.Dialer{Timeout: time.Second}
			c, err := dialer.DialContext(context.Background(), "tcp", addr)
			if err == nil {
				_ = c.Close() // only the listening was to be seen
				break
			}
			if time.Now().After(deadline) {
				d.t.Fatalf("slapd does not listen on %s: %v\n%s", addr, err, d.Output())
			}
			time.Sleep(20 * time.Millisecond) // polling a listener that is not there yet
		}
	}
}

// Stop stops the server at once (SIGKILL): its clients find nothing there.
func (d *Directory) Stop() {
	d.t.Helper()
	d.Kill()
}

// UserDN returns the DN of user uid.
func (d *Directory) UserDN(uid string) string { return "uid=" + ldap.EscapeDN(uid) + "," + d.People }

// GroupDN returns the DN of group cn.
func (d *Directory) GroupDN(cn string) string { return "cn=" + ldap.EscapeDN(cn) + "," + d.Groups }

// AddUser adds person uid with password under People.
func (d *Directory) AddUser(uid, password string) {
	d.t.Helper()
	d.add(d.UserDN(uid), map[string][]string{
		"objectClass": {"inetOrgPerson"}, "uid": {uid}, "cn": {uid}, "sn": {uid}, "userPassword": {password},
	})
}

// AddGroup adds group cn (groupOfNames) under Groups with the users uids as
// members.
func (d *Directory) AddGroup(cn string, uids ...string) {
	d.t.Helper()
	members := make([]string, 0, len(uids))
	for _, u := range uids {
		members = append(members, d.UserDN(u))
	}
	d.add(d.GroupDN(cn), map[string][]string{"objectClass": {"groupOfNames"}, "cn": {cn}, "member": members})
}

// add adds entry dn with attrs as the root DN.
func (d *Directory) add(dn string, attrs map[string][]string) {
	d.t.Helper()
	conn, err := ldap.DialURL(d.URL)
	if err != nil {
		d.t.Fatalf("slapd: connect: %v\n%s", err, d.Output())
	}
	defer func() { _ = conn.Close() }() // nothing was written on this connection but what Add confirmed
	conn.SetTimeout(10 * time.Second)
	if err := conn.Bind(d.AdminDN, d.AdminPassword); err != nil {
		d.t.Fatalf("slapd: bind as %s: %v", d.AdminDN, err)
	}
	req := ldap.NewAddRequest(dn, nil)
	for name, values := range attrs {
		req.Attribute(name, values)
	}
	if err := conn.Add(req); err != nil {
		d.t.Fatalf("slapd: add %s: %v", dn, err)
	}
}
