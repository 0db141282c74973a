package io.github.ratelimit.behaviour;

import java.util.List;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fails every test during which BlockHound caught a blocking call on a non-blocking
 * thread ({@link BlockingCallDetector}) that the test did not acknowledge. Registered for
 * all tests (META-INF/services, with extension autodetection on in
 * junit-platform.properties), so a reactive test that forgets to look still fails.
 */
public final class BlockingCallsChecked implements BeforeEachCallback, AfterEachCallback {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(BlockingCallsChecked.class);

	@Override
	public void beforeEach(ExtensionContext context) {
		context.getStore(NAMESPACE).put("mark", BlockingCallDetector.mark());
	}

	@Override
	public void afterEach(ExtensionContext context) {
		Integer mark = context.getStore(NAMESPACE).get("mark", Integer.class);
		if (mark == null || !BlockingCallDetector.installed()) {
			return;
		}
		List<String> caught = BlockingCallDetector.unexpectedSince(mark);
		assertThat(caught).as("blocking calls on non-blocking threads").isEmpty();
	}

}
