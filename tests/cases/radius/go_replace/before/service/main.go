package main

import (
	"example.com/service/handler"
	"github.com/acme/kit/log"
)

func main() { log.Info("x"); handler.Serve() }
