module github.com/devops-platform/webhooks-go

go 1.21
