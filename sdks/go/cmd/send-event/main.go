// Command send-event sends one event with the SDK: the README's quick start, runnable as it is.
//
//	PLATFORM_URL=http://127.0.0.1:3000 KEY=svc_live_weh_... go run ./cmd/send-event
package main

import (
	"context"
	"fmt"
	"log"
	"os"

	platform "github.com/devops-platform/platform-go"
)

func main() {
	url := os.Getenv("PLATFORM_URL")
	if url == "" {
		url = "http://127.0.0.1:3000"
	}
	client, err := platform.NewClient(url, os.Getenv("KEY"))
	if err != nil {
		log.Fatal(err)
	}
	event, err := client.Events.Send(context.Background(), "order.created", map[string]any{"order_id": 42})
	if err != nil {
		log.Fatal(err) // a *platform.ApiError for the platform's refusals
	}
	fmt.Printf("sent event %d to %d endpoint(s)\n", event.Id, event.Destinations)
}
