package com.acme.core;

public class Money {}
