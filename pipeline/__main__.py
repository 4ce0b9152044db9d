from .cli import app

app(prog_name="python -m pipeline")
