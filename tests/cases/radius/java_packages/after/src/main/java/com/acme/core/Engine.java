package com.acme.core;

public class Engine {
  public void start() {}
  public void stop() {}
}
