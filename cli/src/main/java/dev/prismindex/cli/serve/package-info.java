/**
 * The resident server ({@code prism-index serve}, docs/agents.md): {@code ResidentServer} keeps a
 * {@link dev.prismindex.cli.serve.WarmBackend} (index and model open across requests) and answers
 * command lines sent over the Unix domain socket described by {@code ServeProtocol}, running them
 * through the CLI's own pipeline (handed in as a
 * {@link dev.prismindex.cli.serve.ResidentServer.CommandRunner}) and streaming back the output and
 * the exit code. {@link dev.prismindex.cli.serve.ServeClient} is the other end, run first by
 * {@code Main}: it loads no engine, Lucene or model class, so a served command starts fast.
 * {@code WarmBackend} also serves the MCP server.
 */
@NullMarked
package dev.prismindex.cli.serve;

import org.jspecify.annotations.NullMarked;
