package io.github.ratelimit.actuate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;

import io.github.ratelimit.control.Ban;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.core.BucketState;
import io.github.ratelimit.policy.Policy;

/**
 * One identity as the limiter keys it ({@code GET /actuator/ratelimits/ip/198.51.100.7}):
 * its overrides, its ban and its buckets.
 *
 * @param dimension the dimension ({@code user}, {@code org}, {@code token}, {@code ip})
 * @param id the id in it (a token id for keys, the client group for ip)
 * @param overrides the limit of each of its overrides, by group
 * @param ban its ban in force; {@code null} (shown) for none
 * @param buckets a list of {@link BucketDescriptor}, or why the store cannot read buckets
 * without changing them
 */
public record SubjectDescriptor(String dimension, String id, Map<String, String> overrides,
		@JsonInclude(JsonInclude.Include.ALWAYS) @Nullable BanDescriptor ban,
		@JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Object buckets) implements OperationResponseBody {

	/**
	 * Describes a subject.
	 * @param overrides its override policies, by group
	 * @param buckets reads its buckets; {@link UnsupportedOperationException} when the
	 * store cannot
	 */
	static SubjectDescriptor of(Subject subject, Map<String, Policy> overrides, @Nullable Ban ban,
			Supplier<List<BucketState>> buckets, long nowMillis) {
		Map<String, String> limits = new LinkedHashMap<>();
		overrides.forEach((group, policy) -> limits.put(group, policy.limit().spec()));
		@Nullable Object read;
		try {
			read = BucketDescriptor.of(buckets.get());
		}
		catch (UnsupportedOperationException ex) {
			read = ex.getMessage();
		}
		return new SubjectDescriptor(subject.dimension().key(), subject.value(), limits,
				(ban != null) ? BanDescriptor.of(ban, nowMillis) : null, read);
	}

	/**
	 * One bucket.
	 *
	 * @param policy the bandwidth's name
	 * @param limit the policy's limit, as written
	 * @param quota what a window refills
	 * @param remaining tokens left
	 * @param resetSeconds seconds until the bucket is full again
	 */
	public record BucketDescriptor(String policy, String limit, long quota, long remaining, long resetSeconds) {

		static List<BucketDescriptor> of(List<BucketState> buckets) {
			return buckets.stream()
				.map((bucket) -> new BucketDescriptor(bucket.policy(), bucket.limit(), bucket.quota(),
						bucket.remaining(), bucket.resetSeconds()))
				.toList();
		}

	}

}
