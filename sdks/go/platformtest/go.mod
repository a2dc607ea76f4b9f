// The scenarios against a real platform, in a module of their own so that the SDK's module does not depend on
// the receiver library (the end-to-end test uses both).
module github.com/devops-platform/platform-go/platformtest

go 1.24.0

require (
	github.com/devops-platform/platform-go v0.0.0
	github.com/devops-platform/webhooks-go v0.0.0
)

require (
	github.com/apapsch/go-jsonmerge/v2 v2.0.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/oapi-codegen/runtime v1.6.0 // indirect
)

replace (
	github.com/devops-platform/platform-go => ../
	github.com/devops-platform/webhooks-go => ../../../receivers/go
)
