package com.acme.billing;

import com.acme.core.Money;

public class Invoice {}
