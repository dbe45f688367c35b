"""The SQTT corpus' capture folders, as the bench scripts beside this file walk them."""

import json
import os


def capture_folders(corpus):
    """[(arch, example, folder, meta)] of every capture folder (one with meta.json), sorted."""
    out = []
    for arch in sorted(d for d in os.listdir(corpus) if os.path.isdir(os.path.join(corpus, d))):
        for example in sorted(os.listdir(os.path.join(corpus, arch))):
            folder = os.path.join(corpus, arch, example)
            if not os.path.exists(os.path.join(folder, 'meta.json')):
                continue
            with open(os.path.join(folder, 'meta.json')) as f:
                out.append((arch, example, folder, json.load(f)))
    return out
