package io.github.ratelimit.web;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RecentPathsTests {

	private final RecentPaths<String> recent = new RecentPaths<>();

	@Test
	void findsWhatWasRememberedForTheSameScopeAndPath() {
		this.recent.remember("GET", "/v1/things", "things");
		assertThat(this.recent.find("GET", "/v1/things")).isEqualTo("things");
		assertThat(this.recent.find("POST", "/v1/things")).as("another method").isNull();
		assertThat(this.recent.find("GET", "/v1/thing")).as("another path").isNull();
	}

	@Test
	void aFloodOfPathsKeepsTheTableAtItsSize() {
		for (int i = 0; i < 100_000; i++) {
			this.recent.remember("GET", "/v1/items/" + i, "item " + i);
		}
		int found = 0;
		for (int i = 0; i < 100_000; i++) {
			String value = this.recent.find("GET", "/v1/items/" + i);
			if (value != null) {
				assertThat(value).isEqualTo("item " + i);
				found++;
			}
		}
		assertThat(found).isPositive().isLessThanOrEqualTo(RecentPaths.SLOTS);
	}

	@Test
	void aLongPathIsNotRemembered() {
		String path = "/" + "a".repeat(RecentPaths.MAX_PATH_LENGTH);
		this.recent.remember("GET", path, "long");
		assertThat(this.recent.find("GET", path)).isNull();
		String fits = path.substring(1);
		this.recent.remember("GET", fits, "fits");
		assertThat(this.recent.find("GET", fits)).isEqualTo("fits");
	}

}
