"""Put this directory on PYTHONPATH with TXL_AS_TRITON=1 to run unmodified
Triton scripts through txl (see txl/triton_compat.py):

    PYTHONPATH=<repo>/python:<repo>/python/txl/compat_site \\
        TXL_AS_TRITON=1 python3 script.py
"""
import os

if os.environ.get("TXL_AS_TRITON") == "1":
    import txl  # noqa: F401  (importing txl with the variable set enables it)
