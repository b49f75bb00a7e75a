from pkg import core
import os
