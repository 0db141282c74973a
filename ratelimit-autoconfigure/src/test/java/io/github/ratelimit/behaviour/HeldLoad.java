package io.github.ratelimit.behaviour;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import io.github.ratelimit.load.LoadSignal;

/**
 * A load signal a test holds where it wants, defined as the application's own
 * {@link LoadSignal} bean.
 */
@TestConfiguration(proxyBeanMethods = false)
class HeldLoad {

	@Bean
	Level heldLoadLevel() {
		return new Level();
	}

	/** The level, 0 until a test sets it. */
	static final class Level implements LoadSignal {

		private volatile double level;

		void set(double level) {
			this.level = level;
		}

		@Override
		public double level() {
			return this.level;
		}

	}

}
