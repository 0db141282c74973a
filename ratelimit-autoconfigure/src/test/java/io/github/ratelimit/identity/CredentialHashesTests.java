package io.github.ratelimit.identity;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link CredentialHashes}.
 */
class CredentialHashesTests {

	@Test
	void hashesAsSha256sumDoes() {
		// printf %s foo | sha256sum
		assertThat(CredentialHashes.sha256Hex("foo"))
			.isEqualTo("2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae");
		assertThat(CredentialHashes.sha256Hex(""))
			.isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	}

	@Test
	void hashesTextAsUtf8() {
		// printf %s é | sha256sum, in a UTF-8 terminal
		assertThat(CredentialHashes.sha256Hex("\u00e9"))
			.isEqualTo("4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c");
	}

	@Test
	void tokenIdIsAShortStableHashThatNeverShowsTheSecret() {
		String tokenId = CredentialHashes.tokenId("foo");
		assertThat(tokenId).isEqualTo("t-2c26b46b68ffc68ff99b453c1d304134")
			.isEqualTo(CredentialHashes.tokenId("foo"))
			.doesNotContain("foo")
			.matches("t-[0-9a-f]{32}");
		assertThat(CredentialHashes.tokenId("fop")).isNotEqualTo(tokenId);
	}

	@Test
	void tokenIdOfAHashEqualsTokenIdOfItsCredential() {
		assertThat(CredentialHashes.tokenIdOfSha256(CredentialHashes.sha256Hex("secret-key")))
			.isEqualTo(CredentialHashes.tokenId("secret-key"));
	}

	@Test
	void hashesRightFromManyThreadsAtOnce() throws Exception {
		// each request thread hashes the key it is presented: no state shared between
		// them, none left over from an earlier hash
		String foo = "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae";
		String empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			List<Future<Integer>> wrong = new ArrayList<>();
			for (int t = 0; t < 8; t++) {
				wrong.add(threads.submit(() -> {
					int count = 0;
					for (int i = 0; i < 5_000; i++) {
						count += CredentialHashes.sha256Hex("foo").equals(foo) ? 0 : 1;
						count += CredentialHashes.sha256Hex("").equals(empty) ? 0 : 1;
					}
					return count;
				}));
			}
			for (Future<Integer> future : wrong) {
				assertThat(future.get(1, TimeUnit.MINUTES)).isZero();
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

}
