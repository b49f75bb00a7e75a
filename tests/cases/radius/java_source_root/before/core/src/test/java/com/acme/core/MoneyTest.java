package com.acme.core;

import com.acme.core.Money;

class MoneyTest {}
