/** The content feature's query keys: published pages, staff's view of them, the nav and the brand. */
export const contentKeys = {
  all: ['content'] as const,
  infoIndex: () => [...contentKeys.all, 'info'] as const,
  infoPage: (topic: string) => [...contentKeys.all, 'info', topic] as const,
  staffPages: () => [...contentKeys.all, 'pages'] as const,
  staffPage: (topic: string) => [...contentKeys.all, 'pages', topic] as const,
  versions: (topic: string) => [...contentKeys.all, 'pages', topic, 'versions'] as const,
  nav: () => [...contentKeys.all, 'nav'] as const,
  brand: () => [...contentKeys.all, 'brand'] as const,
};
