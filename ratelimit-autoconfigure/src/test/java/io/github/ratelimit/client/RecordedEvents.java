package io.github.ratelimit.client;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;

/**
 * Events written down as short lines, for assertions.
 */
final class RecordedEvents implements ClientEvents {

	final List<String> lines = new CopyOnWriteArrayList<>();

	@Override
	public void waited(String host, Duration wait, WaitReason reason) {
		this.lines.add("waited " + host + " " + reason);
	}

	@Override
	public void retried(String host, int status) {
		this.lines.add("retried " + host + " " + status);
	}

	@Override
	public void gaveUp(String host, int status, GiveUpReason reason) {
		this.lines.add("gave up " + host + " " + status + " " + reason);
	}

	@Override
	public void fewRemaining(String host, @Nullable String policy, long remaining, long limit) {
		this.lines.add("few remaining " + host + " " + policy + " " + remaining + "/" + limit);
	}

}
