/** Query keys of the company codes feature. */
export const companyCodeKeys = {
  list: () => ['companyCodes', 'list'] as const,
};

export const companyCodePath = (id: string) => `portal/code/company/${encodeURIComponent(id)}`;
