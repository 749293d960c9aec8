# The mcptest GitHub Action image (also runs locally: docker run --rm -v "$PWD:/work" -w /work IMAGE run suite.yml).
# GitHub's rules for Docker actions: run as root, no WORKDIR (the workspace is mounted and made the
# working directory), absolute entrypoint path. The build stage keeps pip, the compilers' leftovers
# and Debian's npm (≈170 MB of node-* packages) out of the final image.

FROM debian:bookworm-slim AS build
RUN apt-get update -q \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        python3 python3-venv nodejs npm ca-certificates binutils \
 && rm -rf /var/lib/apt/lists/*
# npm (with npx) as npm publishes it: one self-contained folder, copied into the final image.
RUN NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
    npm install -g --no-fund --no-audit --prefix /opt/npm npm@10.9.2
RUN python3 -m venv /opt/mcptest
# The pinned runtime closure first (its own layer: source edits do not reinstall it), then our
# package against the same pins, plus uv for servers launched with `uvx`. The litellm proxy's
# prebuilt web UI is never loaded by a client; pip is not needed at run time, nor are the debug
# symbols of the wheels' native modules (≈15 MB).
COPY constraints.txt /src/
RUN /opt/mcptest/bin/pip install --no-cache-dir --disable-pip-version-check -q \
        -r /src/constraints.txt
COPY pyproject.toml README.md /src/
COPY src /src/src
RUN /opt/mcptest/bin/pip install --no-cache-dir --disable-pip-version-check -q \
        -c /src/constraints.txt /src \
 && rm -rf /opt/mcptest/lib/python3.11/site-packages/litellm/proxy/_experimental/out \
 && /opt/mcptest/bin/pip uninstall -y -q pip \
 && find /opt/mcptest -name '*.so' -exec strip --strip-unneeded {} +

FROM debian:bookworm-slim
RUN apt-get update -q \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        python3 nodejs ca-certificates \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /usr/share/doc/* /usr/share/man/*
COPY --from=build /opt/npm /opt/npm
COPY --from=build /opt/mcptest /opt/mcptest
COPY entrypoint.py /entrypoint.py
ENV PATH=/opt/mcptest/bin:/opt/npm/bin:$PATH \
    LITELLM_LOCAL_MODEL_COST_MAP=True \
    NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1
ENTRYPOINT ["/opt/mcptest/bin/python", "/entrypoint.py"]
