package com.acme.app;

import com.acme.core.Engine;
import java.util.List;

public class App {}
