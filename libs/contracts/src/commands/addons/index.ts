export * from './addon-fields';
export * from './addon-view';
export * from './install-addon';
export * from './uninstall-addon';
export * from './find-addons';
export * from './issue-token';
