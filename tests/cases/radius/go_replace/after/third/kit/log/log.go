package log

import "fmt"

func Info(msg string) { fmt.Println(msg) }
