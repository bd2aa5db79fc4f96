package edgeclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// fakeGateway stands in for a gateway so that the examples run offline: it
// answers ping, a log-in of admin/secret, the category "service" and a 404
// for any other category, like edged does.
func fakeGateway() *httptest.Server {
	mux := http.NewServeMux()
	reply := func(w http.ResponseWriter, status int, body any) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "req-42")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(body)
	}
	mux.HandleFunc("GET /edge/ping", func(w http.ResponseWriter, _ *http.Request) {
		reply(w, http.StatusOK, map[string]any{"uptime": 3600, "health": "green", "version": "1.0.0", "hostName": "edge-01"})
	})
	mux.HandleFunc("POST /edge/login", func(w http.ResponseWriter, r *http.Request) {
		var in edgeclient.LoginRequest
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Username != "admin" || in.Password != "secret" {
			reply(w, http.StatusUnauthorized, map[string]string{"message": "Username or password do not match"})
			return
		}
		reply(w, http.StatusOK, map[string]any{"message": "Logged in successfully", "uid": 1, "token": "tok-1", "admin": true})
	})
	mux.HandleFunc("GET /edge/category/{name}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("name") != "service" {
			reply(w, http.StatusNotFound, map[string]string{"message": fmt.Sprintf("category %q not found", r.PathValue("name"))})
			return
		}
		reply(w, http.StatusOK, map[string]any{
			"name": map[string]any{"description": "Instance name", "type": "string", "default": "Edge Gateway", "value": "Line 4 gateway"},
		})
	})
	return httptest.NewServer(mux)
}

func ExampleNew() {
	gw := fakeGateway()
	defer gw.Close()

	c, err := edgeclient.New(gw.URL, edgeclient.WithTimeout(10*time.Second))
	if err != nil {
		log.Fatal(err)
	}
	ping, err := c.PingWithResponse(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ping.JSON200.HostName, ping.JSON200.Health)
	// Output: edge-01 green
}

func ExampleClient_Login() {
	gw := fakeGateway()
	defer gw.Close()

	c, err := edgeclient.New(gw.URL)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := c.Login(context.Background(), "admin", "wrong"); errors.Is(err, edgeclient.ErrUnauthorized) {
		fmt.Println("refused:", err)
	}
	who, err := c.Login(context.Background(), "admin", "secret")
	if err != nil {
		log.Fatal(err)
	}
	// Every later request carries the token in its authorization header.
	fmt.Println("user", who.Uid, "admin:", who.Admin, "token:", c.Token())
	// Output:
	// refused: edged: 401 Unauthorized: Username or password do not match (request id req-42)
	// user 1 admin: true token: tok-1
}

func ExampleAPIError() {
	gw := fakeGateway()
	defer gw.Close()

	c, err := edgeclient.New(gw.URL, edgeclient.WithToken("tok-1"))
	if err != nil {
		log.Fatal(err)
	}
	cat, err := c.GetCategoryWithResponse(context.Background(), "service")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println((*cat.JSON200)["name"].Value)

	// Every answer outside 2xx is an *APIError.
	_, err = c.GetCategoryWithResponse(context.Background(), "nope")
	var apiErr *edgeclient.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Message, apiErr.RequestID)
	}
	fmt.Println(errors.Is(err, edgeclient.ErrNotFound))
	// Output:
	// Line 4 gateway
	// 404 category "nope" not found req-42
	// true
}

func ExampleCheck() {
	gw := fakeGateway()
	defer gw.Close()

	c, err := edgeclient.New(gw.URL)
	if err != nil {
		log.Fatal(err)
	}
	// c.Raw returns every answer as it came: the documented error body is
	// parsed, and Check turns the status into an error.
	resp, err := c.Raw.GetCategoryWithResponse(context.Background(), "nope")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.StatusCode(), resp.JSON404.Message)
	_, err = edgeclient.Check(resp, err)
	fmt.Println(errors.Is(err, edgeclient.ErrNotFound))
	// Output:
	// 404 category "nope" not found
	// true
}
