package io.github.ratelimit.http;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.greenbytes.http.sfv.Dictionary;
import org.greenbytes.http.sfv.IntegerItem;
import org.greenbytes.http.sfv.ListElement;
import org.greenbytes.http.sfv.Parameters;
import org.greenbytes.http.sfv.Parser;
import org.greenbytes.http.sfv.StringItem;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.PolicyState;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.load.Priority;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyScope;

import static io.github.ratelimit.http.TestDecisions.ALICE;
import static io.github.ratelimit.http.TestDecisions.admitted;
import static io.github.ratelimit.http.TestDecisions.allowed;
import static io.github.ratelimit.http.TestDecisions.orgExportRejected;
import static io.github.ratelimit.http.TestDecisions.policy;
import static io.github.ratelimit.http.TestDecisions.rejected;
import static io.github.ratelimit.http.TestDecisions.violated;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * What goes on the wire, read back with an independent structured-field parser
 * (greenbytes), not with an inverse of our writer.
 */
class RateLimitHeadersTests {

	private static final RateLimitHeaders IETF = RateLimitHeaders.of(HeaderStyle.IETF);

	@Test
	void ietfPolicyListsEveryBandwidthOfEveryCheckedPolicy() {
		Map<String, String> headers = write(IETF, orgExportRejected());

		List<ListElement<?>> members = Parser.parseList(headers.get("RateLimit-Policy")).get();

		assertThat(members).extracting(this::name)
			.containsExactly("premium-org-export", "premium-user-export-1m", "premium-user-export-1h",
					"backstop-ip-default");
		assertThat(members).extracting((member) -> integer(member.getParams(), "q"))
			.containsExactly(100L, 50L, 500L, 2000L);
		assertThat(members).extracting((member) -> integer(member.getParams(), "w"))
			.containsExactly(60L, 60L, 3600L, 60L);
	}

	@Test
	void burstIsAdvertisedBesideTheSustainedQuotaNotAsIt() {
		Policy bursty = policy("premium", Dimension.USER, "default", "2/1m burst 4");
		PolicyState binding = admitted(bursty, 0, "alice", 3, 30);
		Map<String, String> headers = write(RateLimitHeaders.of(HeaderStyle.IETF, HeaderStyle.X_RATELIMIT),
				allowed(ALICE, "default", binding, binding));

		ListElement<?> member = Parser.parseList(headers.get("RateLimit-Policy")).get().get(0);
		assertThat(integer(member.getParams(), "q")).as("two a minute, sustained").isEqualTo(2);
		assertThat(integer(member.getParams(), "w")).isEqualTo(60);
		assertThat(integer(member.getParams(), "rl-burst")).isEqualTo(4);
		assertThat(headers.get("X-RateLimit-Limit")).isEqualTo("2");
		assertThat(headers.get("X-RateLimit-Remaining")).as("a banked burst may exceed the quota").isEqualTo("3");
	}

	@Test
	void ietfRateLimitReportsOnlyTheBindingLimit() {
		Map<String, String> headers = write(IETF, orgExportRejected());

		List<ListElement<?>> members = Parser.parseList(headers.get("RateLimit")).get();

		assertThat(members).hasSize(1);
		assertThat(name(members.get(0))).isEqualTo("premium-org-export");
		assertThat(integer(members.get(0).getParams(), "r")).isZero();
		assertThat(integer(members.get(0).getParams(), "t")).isEqualTo(23);
	}

	@Test
	void ietfRateLimitOnAnAdmittedRequestReportsTheLimitClosestToExhaustion() {
		Policy user = policy("premium", Dimension.USER, "default", "1000/1m");
		Policy backstop = policy(PolicyScope.BACKSTOP, Dimension.IP, "default", "2000/1m");
		PolicyState binding = admitted(user, 0, "alice", 7, 60);
		Decision decision = allowed(ALICE, "default", binding, binding, admitted(backstop, 0, "203.0.113.7", 1999, 1));

		Map<String, String> headers = write(IETF, decision);

		assertThat(headers.get("RateLimit")).isEqualTo("\"premium-user-default\";r=7;t=60");
		assertThat(Parser.parseList(headers.get("RateLimit-Policy")).get()).hasSize(2);
		assertThat(headers).doesNotContainKeys("Retry-After", "Cache-Control");
	}

	@Test
	void ietfPolicyIsStableAcrossResponsesOfOneTierAndGroup() {
		Policy user = policy("premium", Dimension.USER, "auth", "50/1m, 500/1h");
		PolicyState first = admitted(user, 0, "alice", 49, 2);
		PolicyState later = admitted(user, 0, "alice", 3, 50);

		String firstValue = write(IETF, allowed(ALICE, "auth", first, first, admitted(user, 1, "alice", 499, 8)))
			.get("RateLimit-Policy");
		String laterValue = write(IETF, allowed(ALICE, "auth", later, later, admitted(user, 1, "alice", 453, 700)))
			.get("RateLimit-Policy");

		assertThat(laterValue).isEqualTo(firstValue)
			.isEqualTo("\"premium-user-auth-1m\";q=50;w=60, \"premium-user-auth-1h\";q=500;w=3600");
	}

	@Test
	void ietfPolicyIsJoinedOnceAndReused() {
		RateLimitHeaders headers = RateLimitHeaders.of(HeaderStyle.IETF);
		Policy org = policy("premium", Dimension.ORG, "default", "5000/1m");
		Policy user = policy("premium", Dimension.USER, "default", "1000/1m");
		PolicyState orgState = admitted(org, 0, "acme", 4000, 10);
		PolicyState userState = admitted(user, 0, "alice", 10, 50);

		String first = write(headers, allowed(ALICE, "default", userState, orgState, userState))
			.get("RateLimit-Policy");
		String second = write(headers, allowed(ALICE, "default", orgState, orgState, admitted(user, 0, "bob", 999, 1)))
			.get("RateLimit-Policy");

		assertThat(second).isSameAs(first);
	}

	@Test
	void ietfPolicyFollowsTheCheckedPoliciesWhenTheyChangeBetweenRequests() {
		RateLimitHeaders headers = RateLimitHeaders.of(HeaderStyle.IETF);
		Policy user = policy("partner", Dimension.USER, "default", "100/1m");
		Policy token = policy("partner", Dimension.TOKEN, "default", "1000/1m");
		Policy backstop = policy(PolicyScope.BACKSTOP, Dimension.IP, "default", "2000/1m");
		PolicyState userState = admitted(user, 0, "alice", 99, 1);
		Decision withToken = allowed(ALICE, "default", userState, userState, admitted(token, 0, "h", 999, 1),
				admitted(backstop, 0, "203.0.113.7", 1999, 1));
		Decision withoutToken = allowed(ALICE, "default", userState, userState,
				admitted(backstop, 0, "203.0.113.7", 1999, 1));
		Decision userOnly = allowed(ALICE, "default", userState, userState);

		for (int i = 0; i < 3; i++) {
			assertThat(names(write(headers, withToken).get("RateLimit-Policy"))).containsExactly("partner-user-default",
					"partner-token-default", "backstop-ip-default");
			assertThat(names(write(headers, withoutToken).get("RateLimit-Policy")))
				.containsExactly("partner-user-default", "backstop-ip-default");
			assertThat(names(write(headers, userOnly).get("RateLimit-Policy"))).containsExactly("partner-user-default");
		}
	}

	@Test
	void policyNamesAreEscapedAsStructuredFieldStrings() {
		Policy odd = policy("we\"ird\\tier", Dimension.USER, "caf\u00e9\n", "10/1s");
		PolicyState binding = admitted(odd, 0, "alice", 1, 1);

		Map<String, String> headers = write(IETF, allowed(ALICE, "default", binding, binding));

		assertThat(name(Parser.parseList(headers.get("RateLimit-Policy")).get().get(0)))
			.isEqualTo("we\"ird\\tier-user-caf??");
		assertThat(name(Parser.parseList(headers.get("RateLimit")).get().get(0))).isEqualTo("we\"ird\\tier-user-caf??");
	}

	@Test
	void xRateLimitReportsTheBindingLimitWithResetInDeltaSeconds() {
		Map<String, String> headers = write(RateLimitHeaders.of(HeaderStyle.X_RATELIMIT), orgExportRejected());

		assertThat(headers).containsEntry("X-RateLimit-Limit", "100")
			.containsEntry("X-RateLimit-Remaining", "0")
			.containsEntry("X-RateLimit-Reset", "23")
			.doesNotContainKeys("RateLimit", "RateLimit-Policy");
	}

	@Test
	void splitWritesOneFieldPerValueAndTheOlderPolicySyntax() {
		Map<String, String> headers = write(RateLimitHeaders.of(HeaderStyle.SPLIT), orgExportRejected());

		assertThat(headers).containsEntry("RateLimit-Limit", "100")
			.containsEntry("RateLimit-Remaining", "0")
			.containsEntry("RateLimit-Reset", "23")
			.doesNotContainKeys("RateLimit", "X-RateLimit-Limit");
		IntegerItem policy = (IntegerItem) Parser.parseList(headers.get("RateLimit-Policy")).get().get(0);
		assertThat(policy.getAsLong()).isEqualTo(100);
		assertThat(integer(policy.getParams(), "w")).isEqualTo(60);
	}

	@Test
	void draft7WritesADictionaryAndTheOlderPolicySyntax() {
		Map<String, String> headers = write(RateLimitHeaders.of(HeaderStyle.DRAFT7), orgExportRejected());

		Dictionary rateLimit = Parser.parseDictionary(headers.get("RateLimit"));
		assertThat(rateLimit.get()).containsOnlyKeys("limit", "remaining", "reset");
		assertThat(((IntegerItem) rateLimit.get().get("limit")).getAsLong()).isEqualTo(100);
		assertThat(((IntegerItem) rateLimit.get().get("remaining")).getAsLong()).isZero();
		assertThat(((IntegerItem) rateLimit.get().get("reset")).getAsLong()).isEqualTo(23);
		assertThat(headers).containsEntry("RateLimit-Policy", "100;w=60")
			.doesNotContainKeys("RateLimit-Limit", "X-RateLimit-Limit");
	}

	@Test
	void ietfAndXRateLimitTogetherWriteBothFamilies() {
		Map<String, String> headers = write(RateLimitHeaders.of(HeaderStyle.IETF, HeaderStyle.X_RATELIMIT),
				orgExportRejected());

		assertThat(headers).containsKeys("RateLimit", "RateLimit-Policy", "X-RateLimit-Limit", "X-RateLimit-Remaining",
				"X-RateLimit-Reset");
	}

	@Test
	void noneWritesNoRateLimitFieldsButKeepsRetryAfterOnRejection() {
		Map<String, String> headers = write(RateLimitHeaders.of(HeaderStyle.NONE), orgExportRejected());

		assertThat(headers).containsOnlyKeys("Retry-After", "Cache-Control");
	}

	@Test
	void noStyleAtAllBehavesAsNone() {
		Map<String, String> headers = write(RateLimitHeaders.of(Set.of()), orgExportRejected());

		assertThat(headers).containsOnlyKeys("Retry-After", "Cache-Control");
	}

	@Test
	void rejectionSendsRetryAfterAsAnIntegerAndForbidsCaching() {
		Map<String, String> headers = write(IETF, orgExportRejected());

		assertThat(headers).containsEntry("Retry-After", "23").containsEntry("Cache-Control", "no-store");
		assertThat(Parser.parseItem(headers.get("Retry-After"))).isInstanceOf(IntegerItem.class);
	}

	@Test
	void retryAfterIsAtLeastOneSecond() {
		Policy user = policy("premium", Dimension.USER, "default", "10/1s");
		PolicyState binding = violated(user, 0, "alice", 0);
		Decision decision = rejected(ALICE, "default", binding, binding);

		assertThat(write(IETF, decision)).containsEntry("Retry-After", "1");
	}

	@Test
	void remainingIsNeverNegative() {
		Policy user = policy("premium", Dimension.USER, "default", "10/1s");
		PolicyState binding = new PolicyState(user, 0, "alice", -3, 1, true);

		Map<String, String> headers = write(RateLimitHeaders.of(HeaderStyle.IETF, HeaderStyle.X_RATELIMIT),
				rejected(ALICE, "default", binding, binding));

		assertThat(integer(Parser.parseList(headers.get("RateLimit")).get().get(0).getParams(), "r")).isZero();
		assertThat(headers).containsEntry("X-RateLimit-Remaining", "0");
	}

	@Test
	void blockedTierGetsNoStoreAndNoRetryAfterSinceWaitingNeverHelps() {
		Policy blocked = policy("anonymous", Dimension.IP, "admin", "0");

		Map<String, String> headers = write(IETF, TestDecisions.blocked(anonymous(), "admin", blocked));

		assertThat(headers).containsOnlyKeys("Cache-Control").containsEntry("Cache-Control", "no-store");
	}

	@Test
	void unavailableStoreAsksToRetryAfterOneSecond() {
		Map<String, String> headers = write(IETF, TestDecisions.unavailable(ALICE, "default"));

		assertThat(headers).containsOnly(Map.entry("Retry-After", "1"), Map.entry("Cache-Control", "no-store"));
	}

	@Test
	void shedRequestAsksToRetryAfterTheConfiguredWait() {
		Map<String, String> headers = write(IETF, TestDecisions.shed(ALICE, "default", Priority.NORMAL, 5));

		assertThat(headers).containsOnly(Map.entry("Retry-After", "5"), Map.entry("Cache-Control", "no-store"));
	}

	@Test
	void unavailableStoreKeepsRetryAfterEvenWithNone() {
		Map<String, String> headers = write(RateLimitHeaders.of(HeaderStyle.NONE),
				TestDecisions.unavailable(ALICE, "default"));

		assertThat(headers).containsEntry("Retry-After", "1");
	}

	@Test
	void unlimitedAndAdmittedOnErrorWriteNothing() {
		RateLimitHeaders all = RateLimitHeaders.of(HeaderStyle.IETF, HeaderStyle.X_RATELIMIT);

		assertThat(write(all, TestDecisions.unlimited(ALICE, "default"))).isEmpty();
		assertThat(write(all, TestDecisions.admittedOnError(ALICE, "default"))).isEmpty();
	}

	@Test
	void everyValidCombinationWritesEachHeaderAtMostOnceAndOnlyNamesItDeclares() {
		for (Set<HeaderStyle> styles : validCombinations()) {
			RateLimitHeaders headers = RateLimitHeaders.of(styles);
			List<String> names = new ArrayList<>();
			headers.write(orgExportRejected(), (name, value) -> names.add(name));

			assertThat(names).as("%s", styles).doesNotHaveDuplicates();
			names.remove("Cache-Control");
			assertThat(headers.headerNames()).as("%s", styles).containsAll(names);
		}
	}

	@Test
	void headerNamesListWhatAStyleWrites() {
		assertThat(RateLimitHeaders.of(HeaderStyle.IETF, HeaderStyle.X_RATELIMIT).headerNames()).containsExactly(
				"RateLimit", "RateLimit-Policy", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
				"RateLimit-Warning", "Retry-After");
		assertThat(RateLimitHeaders.of(HeaderStyle.NONE).headerNames()).containsExactly("Retry-After");
	}

	@Test
	void stylesAreKept() {
		assertThat(RateLimitHeaders.of(HeaderStyle.X_RATELIMIT, HeaderStyle.IETF).styles())
			.containsExactly(HeaderStyle.IETF, HeaderStyle.X_RATELIMIT);
	}

	@Test
	void rejectsIetfWithSplitSinceTheyShareFieldNames() {
		assertThatIllegalArgumentException().isThrownBy(() -> RateLimitHeaders.of(HeaderStyle.IETF, HeaderStyle.SPLIT))
			.withMessageContaining("[ietf, split]")
			.withMessageContaining("RateLimit-Policy")
			.withMessageContaining("different syntaxes")
			.withMessageContaining("[ietf, x-ratelimit]");
	}

	@Test
	void rejectsIetfWithDraft7SinceTheyShareFieldNames() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RateLimitHeaders.of(HeaderStyle.IETF, HeaderStyle.DRAFT7, HeaderStyle.X_RATELIMIT))
			.withMessageContaining("ietf and draft7")
			.withMessageContaining("[ietf, x-ratelimit]");
	}

	@Test
	void rejectsSplitWithDraft7() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RateLimitHeaders.of(HeaderStyle.SPLIT, HeaderStyle.DRAFT7))
			.withMessageContaining("split and draft7")
			.withMessageContaining("[ietf, x-ratelimit]");
	}

	@Test
	void rejectsNoneWithAnyOtherStyle() {
		for (HeaderStyle other : EnumSet.complementOf(EnumSet.of(HeaderStyle.NONE))) {
			assertThatIllegalArgumentException().isThrownBy(() -> RateLimitHeaders.of(HeaderStyle.NONE, other))
				.withMessageContaining("'none'")
				.withMessageContaining("[ietf, x-ratelimit]");
		}
	}

	@Test
	void acceptsExactlyTheCombinationsWithoutACollision() {
		assertThat(validCombinations()).containsExactlyInAnyOrder(Set.of(), Set.of(HeaderStyle.NONE),
				Set.of(HeaderStyle.IETF), Set.of(HeaderStyle.X_RATELIMIT), Set.of(HeaderStyle.SPLIT),
				Set.of(HeaderStyle.DRAFT7), Set.of(HeaderStyle.IETF, HeaderStyle.X_RATELIMIT),
				Set.of(HeaderStyle.SPLIT, HeaderStyle.X_RATELIMIT),
				Set.of(HeaderStyle.DRAFT7, HeaderStyle.X_RATELIMIT));
	}

	/** Every subset of the styles that the factory accepts. */
	private static List<Set<HeaderStyle>> validCombinations() {
		HeaderStyle[] all = HeaderStyle.values();
		List<Set<HeaderStyle>> valid = new ArrayList<>();
		for (int mask = 0; mask < (1 << all.length); mask++) {
			EnumSet<HeaderStyle> styles = EnumSet.noneOf(HeaderStyle.class);
			for (int i = 0; i < all.length; i++) {
				if ((mask & (1 << i)) != 0) {
					styles.add(all[i]);
				}
			}
			try {
				RateLimitHeaders.of(styles);
				valid.add(styles);
			}
			catch (IllegalArgumentException ex) {
				// a collision: covered by the rejects* tests
			}
		}
		return valid;
	}

	private static Identity anonymous() {
		return Identity.anonymous("198.51.100.4", "anonymous");
	}

	private static Map<String, String> write(RateLimitHeaders headers, Decision decision) {
		Map<String, String> written = new LinkedHashMap<>();
		headers.write(decision,
				(name, value) -> assertThat(written.put(name, value)).as("%s written twice", name).isNull());
		return written;
	}

	private List<String> names(String list) {
		return Parser.parseList(list).get().stream().map(this::name).toList();
	}

	private String name(ListElement<?> member) {
		return ((StringItem) member).get();
	}

	private static long integer(Parameters parameters, String key) {
		assertThat(parameters).containsKey(key);
		return ((IntegerItem) parameters.get(key)).getAsLong();
	}

}
