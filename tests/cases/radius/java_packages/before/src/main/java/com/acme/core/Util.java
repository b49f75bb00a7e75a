package com.acme.core;

public class Util {}
