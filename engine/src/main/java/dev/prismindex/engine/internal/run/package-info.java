/**
 * The write side of the engine (internal; not an API). {@link
 * dev.prismindex.engine.internal.run.WriteRun} is the transaction every run goes through
 * (writer, lexical commit, {@link dev.prismindex.engine.internal.run.EmbedPhase}, close or roll
 * back); {@link dev.prismindex.engine.internal.run.IndexJobs} holds the three kinds of run
 * (refresh, seam update, seam removal); {@link
 * dev.prismindex.engine.internal.run.StalenessProbe} is the cheap freshness check; {@link
 * dev.prismindex.engine.internal.run.CorpusView} shows what a run would walk and embed.
 */
@NullMarked
package dev.prismindex.engine.internal.run;

import org.jspecify.annotations.NullMarked;
