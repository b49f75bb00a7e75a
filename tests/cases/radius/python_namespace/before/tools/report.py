import acme.sdk.provider
