package io.github.ratelimit.http;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.ratelimit.core.PolicyState;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.PolicyScope;

import static io.github.ratelimit.http.TestDecisions.ALICE;
import static io.github.ratelimit.http.TestDecisions.policy;
import static io.github.ratelimit.http.TestDecisions.rejected;
import static io.github.ratelimit.http.TestDecisions.violated;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The problem body of a refusal by a budget of the service: it names the scope
 * {@code service} and reads as the service being busy, never as the caller's fault.
 */
class ServiceBusyProblemTests {

	private static final JsonMapper json = JsonMapper.builder().build();

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
					export  | export  | 1000/1m      | 3  | The 'export' endpoints are busy: they take at most 1000 requests per minute from all callers together. Retry after 3 seconds.
					export  | default | 300/15m      | 1  | These endpoints are busy: they take at most 300 requests per 15 minutes from all callers together. Retry after 1 second.
					default | default | 1/1s         | 1  | These endpoints are busy: they take at most 1 request per second from all callers together. Retry after 1 second.
					export  | all     | 50000/1h     | 42 | This API is busy: it takes at most 50000 requests per hour from all callers together. Retry after 42 seconds.
					export  | export  | 20 concurrent | 1 | The 'export' endpoints are busy: they serve at most 20 requests at a time from all callers together. Retry after 1 second.
					reports | all     | 100000/day   | 60 | This API is busy: it takes at most 100000 requests a day from all callers together. Retry after 60 seconds.
					""")
	void theDetailSaysTheEndpointsAreBusyForEveryCaller(String group, String budgetGroup, String limit, long retryAfter,
			String detail) {
		PolicyState binding = violated(policy(PolicyScope.SERVICE, Dimension.SERVICE, budgetGroup, limit), 0, "all",
				retryAfter);
		JsonNode body = json
			.readTree(new ProblemDetailsBodyWriter().write(rejected(ALICE, group, binding, binding), "id"));
		assertThat(body.get("status").longValue()).isEqualTo(429);
		assertThat(body.get("detail").stringValue()).isEqualTo(detail);
		assertThat(body.get("code").stringValue()).isEqualTo("service_limit_exceeded");
		assertThat(body.get("scope").stringValue()).isEqualTo("service");
		assertThat(body.get("violated-policies").get(0).stringValue()).isEqualTo("service-" + budgetGroup);
		assertThat(body.get("group").stringValue()).isEqualTo(group);
		assertThat(body.get("retry_after").longValue()).isEqualTo(retryAfter);
		assertThat(body.toString()).doesNotContain("alice");
	}

}
