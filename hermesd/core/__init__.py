"""The shared core of hermesd and its tools: what both ends of a tool socket rely on.

- `errors`: the documented error codes and the exceptions that carry them
- `protocol`, `strict_json`: the typed messages of the tool sockets and their framing
- `statefiles`: atomic files (write, fsync, rename) and state directories that are ours
- `hashing`: sha256 of files
- `registers`: Modbus register types, their widths and ranges (the codec's, shared with the config)
- `settings`: one typed settings class per driver's device and point (modbus, serial, mqtt),
  built by the config, sent in the configure message, read back by the tool and the simulator
- `topics`: the MQTT topics of a node, for the daemon and its mqtt tool
- `wav`, `vad`: audio frames (16 kHz mono 16-bit WAV) and voice activity
- `model_files`: where the prepared models are at run time, and whether a file is still the one
  that was prepared (preparing them is build time: hermesd/models, never used at run time);
  `gguf_header`, `ggml_whisper`: the model file formats, read to check a file before loading it
- `eventloop`, `peercred`: the event loop a process runs, and who is at the other end of a socket
- `heap`: handing back the memory a process's start-up freed (called by `eventloop`)
- `deferred`: a module a library imports but may never use, loaded at its first use

Tools (tools/hermes_tools) import hermesd only through this package, and `hermesd.__version__`
(tests/test_imports.py checks it; the plant simulator, a development tool the daemon never runs,
also reads a plant's config with hermesd.config). Nothing here imports from the rest of hermesd.
"""
