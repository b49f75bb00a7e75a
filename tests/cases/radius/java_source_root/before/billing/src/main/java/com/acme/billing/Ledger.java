package com.acme.billing;

import com.acme.billing.Invoice;
import java.util.List;

public class Ledger {}
