package com.acme.cli;

import com.acme.app.App;
import static com.acme.core.Util.helper;

public class Cli {}
