package com.acme.web;

import com.acme.core.*;

public class Web {}
