module example.com/service

go 1.22

require github.com/acme/kit v1.4.0

replace github.com/acme/kit => ../third/kit
