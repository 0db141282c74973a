package io.github.ratelimit.autoconfigure;

import org.springframework.util.ClassUtils;

import io.github.ratelimit.identity.IdentityResolver;
import io.github.ratelimit.identity.security.SpringSecurityIdentityResolver;

/**
 * Creates the Spring Security resolver only when Spring Security is on the classpath.
 */
final class SpringSecurityResolvers {

	private static final String AUTHENTICATION = "org.springframework.security.core.Authentication";

	private SpringSecurityResolvers() {
	}

	static boolean isPresent() {
		return ClassUtils.isPresent(AUTHENTICATION, SpringSecurityResolvers.class.getClassLoader());
	}

	static IdentityResolver create(RateLimitProperties.Identity identity) {
		return new SpringSecurityIdentityResolver(identity.getOrgClaim(), identity.getTierClaim(),
				identity.getOrgAuthorityPrefix(), identity.getTierAuthorityPrefix());
	}

}
