// Command edged-load is the whole-system benchmark of edged (make
// bench-system) and the load generator it uses. It measures gateways as
// whole processes, side by side with what they are compared with, in one
// run on one machine:
//
//	edged-load system -edged bin/edged [-short] [-reps 3] [-duration 10s]
//
// starts the gateway on SQLite (and on PostgreSQL when EDGE_TEST_PG is set,
// as scripts/with-postgres.sh does), a raw driver loop and a bare net/http
// server as child processes, drives them with the same load generator and
// prints every figure of docs/benchmarks.md with the median and spread of
// the repetitions. The other subcommands are the pieces it runs:
//
//	edged-load ingest -url URL [-senders 4] [-batch 100] [-duration 10s]
//	edged-load raw -sqlite FILE | -postgres DSN [-batch 100] [-duration 10s]
//	edged-load bare
//
// ingest posts to an http_south service and prints what was stored; raw is
// the raw driver loop writing the same rows straight into the readings
// table; bare serves GET /edge/ping and POST /sensor-reading with plain net/http
// handlers. Every
// subcommand prints one JSON object on stdout.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:])
	stop()
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "edged-load:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: edged-load system|ingest|raw|bare [flags]; edged-load CMD -h for the flags")
		return flag.ErrHelp
	}
	switch args[0] {
	case "system":
		return runSystem(ctx, args[1:])
	case "ingest":
		return runIngestCmd(ctx, args[1:])
	case "raw":
		return runRawCmd(ctx, args[1:])
	case "bare":
		return runBare(ctx, args[1:])
	}
	return fmt.Errorf("unknown subcommand %q; want system, ingest, raw or bare", args[0])
}

// printJSON writes v to stdout as one line of JSON.
func printJSON(v any) error {
	return json.NewEncoder(os.Stdout).Encode(v)
}
