package io.github.ratelimit.identity;

import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Step one of the pipeline: the {@link Identity} of a request. Asks the
 * {@link IdentityResolver}s in order; the first {@link ResolvedIdentity} wins, and gets
 * the client address and its tier (a configured one, else the authenticated tier).
 * Without one the request is anonymous, known by its client address only.
 */
public final class Identifier {

	private static final Logger logger = LoggerFactory.getLogger(Identifier.class);

	private final List<IdentityResolver> resolvers;

	private final ClientIpResolver ipResolver;

	private final Predicate<String> isTier;

	private final String anonymousTier;

	private final String authenticatedTier;

	private final @Nullable AddressTiers addressTiers;

	/**
	 * Creates an identifier.
	 * @param resolvers the resolvers, in the order to ask them
	 * @param ipResolver finds the client address
	 * @param tiers the configured tiers: a caller naming another tier gets
	 * {@code authenticatedTier}
	 * @param anonymousTier the tier of anonymous callers
	 * @param authenticatedTier the tier of verified callers that name no configured tier
	 */
	public Identifier(List<IdentityResolver> resolvers, ClientIpResolver ipResolver, Set<String> tiers,
			String anonymousTier, String authenticatedTier) {
		this(resolvers, ipResolver, Set.copyOf(tiers)::contains, anonymousTier, authenticatedTier);
	}

	/**
	 * Creates an identifier that asks which tiers exist on every request (the tiers of a
	 * policy table that may be replaced at runtime).
	 * @param resolvers the resolvers, in the order to ask them
	 * @param ipResolver finds the client address
	 * @param isTier whether a tier is configured: a caller naming another tier gets
	 * {@code authenticatedTier}
	 * @param anonymousTier the tier of anonymous callers
	 * @param authenticatedTier the tier of verified callers that name no configured tier
	 */
	public Identifier(List<IdentityResolver> resolvers, ClientIpResolver ipResolver, Predicate<String> isTier,
			String anonymousTier, String authenticatedTier) {
		this(resolvers, ipResolver, isTier, anonymousTier, authenticatedTier, null);
	}

	/**
	 * Creates an identifier that also holds anonymous callers to a tier by their address.
	 * @param resolvers the resolvers, in the order to ask them
	 * @param ipResolver finds the client address
	 * @param isTier whether a tier is configured
	 * @param anonymousTier the tier of anonymous callers
	 * @param authenticatedTier the tier of verified callers that name no configured tier
	 * @param addressTiers the tier of an anonymous caller by its address (a configured
	 * one, else {@code anonymousTier}), or {@code null}
	 */
	public Identifier(List<IdentityResolver> resolvers, ClientIpResolver ipResolver, Predicate<String> isTier,
			String anonymousTier, String authenticatedTier, @Nullable AddressTiers addressTiers) {
		this.resolvers = List.copyOf(resolvers);
		this.ipResolver = ipResolver;
		this.isTier = isTier;
		this.anonymousTier = anonymousTier;
		this.authenticatedTier = authenticatedTier;
		this.addressTiers = (addressTiers != null && addressTiers.assigns()) ? addressTiers : null;
	}

	/**
	 * Identifies the caller of a request. Never throws for anything the request carries.
	 */
	public Identity identify(ClientRequest request) {
		String ip = this.ipResolver.resolve(request);
		for (IdentityResolver resolver : this.resolvers) {
			ResolvedIdentity caller;
			try {
				caller = resolver.resolve(request);
			}
			catch (RuntimeException ex) {
				// a broken resolver must not turn into a 500, nor into a higher tier
				logger.warn("Identity resolver {} failed; treating the request as anonymous", resolver, ex);
				return Identity.anonymous(ip, anonymousTier(request));
			}
			if (caller != null) {
				String tier = (caller.tier() != null && this.isTier.test(caller.tier())) ? caller.tier()
						: this.authenticatedTier;
				return new Identity(caller.user(), caller.org(), caller.token(), ip, tier, true);
			}
		}
		return Identity.anonymous(ip, anonymousTier(request));
	}

	/**
	 * The caller of a request as known before authentication: anonymous, by its client
	 * address (grouped), in the anonymous tier. Asks no resolver.
	 */
	public Identity anonymous(ClientRequest request) {
		return Identity.anonymous(this.ipResolver.resolve(request), anonymousTier(request));
	}

	private String anonymousTier(ClientRequest request) {
		AddressTiers tiers = this.addressTiers;
		if (tiers == null) {
			return this.anonymousTier;
		}
		try {
			String tier = tiers.tierOf(address(request));
			return (tier != null && this.isTier.test(tier)) ? tier : this.anonymousTier;
		}
		catch (RuntimeException ex) {
			return this.anonymousTier;
		}
	}

	/** The client address of a request, not grouped: what allow and deny ranges match. */
	public String address(ClientRequest request) {
		return this.ipResolver.resolveAddress(request);
	}

}
