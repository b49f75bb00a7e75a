package handler

import "github.com/acme/kit/log"

func Serve() { log.Info("serve") }
