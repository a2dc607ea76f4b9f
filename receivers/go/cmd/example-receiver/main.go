// Command example-receiver is a complete HTTPS receiver built on webhooks.Middleware: it answers
// 200 {"verified": "<id>"} to a verified delivery and 401 {"error": "<code>"} otherwise, and logs
// each request as one JSON line on stdout (the platform's tests replay and cross-check them).
//
//	WEBHOOK_SECRETS="whsec_... whsec_..." TLS_CERT=cert.pem TLS_KEY=key.pem go run ./cmd/example-receiver
//
// CLOCK_OFFSET_SECONDS shifts its clock (tests judge a replay "6 minutes later" this way).
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	webhooks "github.com/devops-platform/webhooks-go"
)

func main() {
	offset, _ := strconv.Atoi(os.Getenv("CLOCK_OFFSET_SECONDS"))
	opts := webhooks.Options{
		Secrets: strings.Fields(os.Getenv("WEBHOOK_SECRETS")),
		Scheme:  webhooks.Scheme(os.Getenv("WEBHOOK_SCHEME")),
		Now:     func() time.Time { return time.Now().Add(time.Duration(offset) * time.Second) },
	}
	verified := webhooks.Middleware(opts, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		delivery, _ := webhooks.FromContext(r.Context())
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"verified": delivery.ID})
	}))
	var mu sync.Mutex
	logged := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, webhooks.MaxBodyBytes))
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}
		verified.ServeHTTP(rec, r)
		headers := map[string]string{}
		for name := range r.Header {
			headers[strings.ToLower(name)] = r.Header.Get(name)
		}
		line, _ := json.Marshal(map[string]any{"status": rec.status, "headers": headers, "body_base64": base64.StdEncoding.EncodeToString(body)})
		mu.Lock()
		fmt.Println(string(line))
		mu.Unlock()
	})
	listener, err := net.Listen("tcp", "127.0.0.1:"+os.Getenv("PORT"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("listening %d\n", listener.Addr().(*net.TCPAddr).Port)
	log.Fatal(http.ServeTLS(listener, logged, os.Getenv("TLS_CERT"), os.Getenv("TLS_KEY")))
}

type recorder struct {
	http.ResponseWriter
	status int
}

func (r *recorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}
