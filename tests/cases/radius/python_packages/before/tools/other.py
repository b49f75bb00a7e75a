import json
import app
