"""``python -m hat_env.train STAGE --config FILE`` (and ``accelerate launch -m hat_env.train ...``)."""

import sys

from hat_env.train.cli import main

sys.exit(main())
